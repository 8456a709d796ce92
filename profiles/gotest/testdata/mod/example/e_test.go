package example

import "fmt"

func ExampleGood() {
	fmt.Println("hi")
	// Output: hi
}

func ExampleBad() {
	fmt.Println("hello")
	fmt.Println("world")
	// Output:
	// bye
	// world
}
