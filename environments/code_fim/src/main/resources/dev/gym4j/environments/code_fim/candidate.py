# gym4j code_fim candidate (untrusted; runs in a sandbox of its own): loads program.py (prefix + completion +
# suffix) and answers the checker's calls of its functions. Nothing it prints or returns is a verdict.
import calls

calls.serve_functions(open("program.py").read())
