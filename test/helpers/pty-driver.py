"""Runs a command in a pseudo-terminal and relays it: stdin -> the terminal, the terminal -> stdout.

Tests drive an interactive program (lspgate repl) as a person at a terminal would: keys in,
screen bytes out, with a real tty (raw mode, Ctrl-C as a key, Tab completion, window size).
Usage: python3 pty-driver.py COLS ROWS COMMAND [ARGS...]; exits with the command's status.
"""
import fcntl
import os
import pty
import select
import struct
import sys
import termios

cols, rows = int(sys.argv[1]), int(sys.argv[2])
argv = sys.argv[3:]
pid, master = pty.fork()
if pid == 0:
    # the child: its stdin is the terminal; size it before the program reads it
    fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
    os.execvp(argv[0], argv)

stdin_open = True
while True:
    watched = [master] + ([sys.stdin.fileno()] if stdin_open else [])
    ready, _, _ = select.select(watched, [], [])
    if sys.stdin.fileno() in ready:
        data = os.read(sys.stdin.fileno(), 4096)
        if data:
            os.write(master, data)
        else:
            stdin_open = False
    if master in ready:
        try:
            data = os.read(master, 65536)
        except OSError:
            data = b""
        if not data:
            break
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()

_, status = os.waitpid(pid, 0)
sys.exit(os.waitstatus_to_exitcode(status) if os.WIFEXITED(status) else 128 + os.WTERMSIG(status))
