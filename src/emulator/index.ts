// The emulator lands with its own issue.
export {}
