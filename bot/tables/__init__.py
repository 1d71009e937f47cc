"""Tables: the service that runs them, the one clock that times them."""
