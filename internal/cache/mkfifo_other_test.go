//go:build !linux

package cache

import "errors"

func mkfifo(string) error { return errors.New("not on Linux") }
