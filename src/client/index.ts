// The typed API client lands with its own issue.
export {}
