package main

import "io"

func runSchema(args []string, stdin io.Reader, stdout, stderr io.Writer) int { return exitUsage }
