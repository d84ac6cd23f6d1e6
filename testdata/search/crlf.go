package crlf

// TODO(crlf): windows line endings
func Crlf() {}
