//go:build windows

package session

import "errors"

func mkfifo(string) error { return errors.New("no named pipes in the file system on Windows") }
