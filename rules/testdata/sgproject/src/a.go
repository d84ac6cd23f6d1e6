package main

func main() {
	fmt.Println("hi")
}
