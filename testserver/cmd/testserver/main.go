// Command testserver runs crdschema's in-process API server standalone, for
// clients in other languages and for kubectl: it serves the CRDs of the
// given files and folders, writes a kubeconfig, and runs until interrupted.
//
//	testserver -crds config/crd -kubeconfig /tmp/kubeconfig &
//	KUBECONFIG=/tmp/kubeconfig kubectl get crontabs
package main

import (
	"flag"
	"fmt"
	"github.com/crdschema/crdschema"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/crdschema/crdschema/testserver"
)

type paths []string

func (p *paths) String() string     { return strings.Join(*p, ",") }
func (p *paths) Set(v string) error { *p = append(*p, v); return nil }

func main() {
	var crds paths
	flag.Var(&crds, "crds", "a CRD file or folder to serve (repeatable)")
	kubeconfig := flag.String("kubeconfig", "", "where to write the kubeconfig (default: print it on standard output)")
	address := flag.String("address", "127.0.0.1:0", "the address to listen on")
	version := flag.String("kubernetes-version", "", "the Kubernetes release to answer as, 1.33 to 1.37 (default 1.37)")
	flag.Parse()
	if flag.NArg() > 0 {
		fmt.Fprintf(os.Stderr, "testserver: unexpected arguments %q\n", flag.Args())
		os.Exit(2)
	}
	v, err := crdschema.ParseKubernetesVersion(*version)
	if err != nil {
		fmt.Fprintln(os.Stderr, "testserver: -kubernetes-version:", err)
		os.Exit(2)
	}
	srv, err := testserver.Start(testserver.WithCRDFiles(crds...), testserver.WithAddress(*address), testserver.WithKubernetesVersion(v))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if *kubeconfig != "" {
		if err := srv.WriteKubeconfig(*kubeconfig); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		fmt.Printf("serving at %s; kubeconfig written to %s\n", srv.URL(), *kubeconfig)
	} else {
		data, err := srv.Kubeconfig()
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Stdout.Write(data)
	}
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	<-sig
	_ = srv.Close()
}
