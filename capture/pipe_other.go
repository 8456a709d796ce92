//go:build !linux

package capture

// growPipe is a no-op where pipe buffers cannot be resized.
func growPipe(int) {}
