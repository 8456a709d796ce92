package build
