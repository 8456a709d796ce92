//go:build !linux

package capture

// growPipe is a no-op where pipe buffers cannot be resized: it returns 0.
func growPipe(int) int { return 0 }
