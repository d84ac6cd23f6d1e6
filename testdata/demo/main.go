// Command demo is a tiny program for the structls demo session.
package main

import (
	"fmt"
	"os"

	"example.com/demo/util"
)

func main() {
	name, err := util.Greeting(os.Args[1:])
	if err != nil {
		fmt.Println("error:", err)
		os.Exit(1)
	}
	// TODO: read the greeting from a flag
	fmt.Println(name)
}
