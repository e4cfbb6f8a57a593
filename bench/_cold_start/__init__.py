"""The parts of bench/cold_start.py: the engines and tables it runs against (`world`), each function's
first request (`requests`) and the process that imports a handler and serves that request (`probe`)."""
