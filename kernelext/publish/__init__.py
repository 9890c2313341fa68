"""What runs outside the kernel: handouts of executed notebooks, the Jupyter server's save hook, the browser site."""
