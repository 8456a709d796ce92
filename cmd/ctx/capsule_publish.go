package main

import "github.com/spf13/cobra"

func newCapsulePublishCmd(ios *IO) *cobra.Command {
	return &cobra.Command{Use: "publish", Hidden: true}
}
