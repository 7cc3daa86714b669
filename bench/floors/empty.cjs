// Floor: node running a file that does nothing — what starting any hook as `node FILE` costs over `node -e 0`.
