// Package redact finds credentials written into URLs
// (scheme://user:password@host) in any text and masks them, so that no
// message or saved file repeats a secret a user typed into a URL. It
// imports only the standard library.
package redact
