//go:build !experimental

package main

const crdChannel = "standard"
