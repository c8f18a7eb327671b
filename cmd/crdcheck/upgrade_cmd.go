package main

import "io"

func runUpgrade(args []string, stdin io.Reader, stdout, stderr io.Writer) int { return exitUsage }
