package example

func Good() string { return "hi" }
func Bad() string  { return "hello" }
