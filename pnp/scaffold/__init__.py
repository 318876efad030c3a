"""`pnp new NAME`: a small complete pack to start a game from (the files are in starter/)."""
