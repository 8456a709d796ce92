package store

import (
	"errors"
	"syscall"
)

// isNoSpace reports whether err says the disk or a size limit is full.
func isNoSpace(err error) bool {
	return errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EFBIG) || errors.Is(err, syscall.EDQUOT)
}
