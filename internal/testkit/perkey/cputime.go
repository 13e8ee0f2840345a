package perkey

import "time"

var epoch = time.Now()
