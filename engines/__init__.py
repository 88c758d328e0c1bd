"""Pure rules engines for the Motable games; nothing here does I/O."""
