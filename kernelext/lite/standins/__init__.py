"""Modules that pycsp3 imports and a browser lacks, written for the browser's Python (see kernelext.lite.wheels)."""
