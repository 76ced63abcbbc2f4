// The git input: repository plumbing through the git binary, run isolated.
