"""splitmix64 of ptxemu-launch(5) 'random', to compute expected values of labs."""
M = (1 << 64) - 1

def stream(seed):
    state = seed & M
    while True:
        state = (state + 0x9e3779b97f4a7c15) & M
        z = state
        z = ((z ^ (z >> 30)) * 0xbf58476d1ce4e5b9) & M
        z = ((z ^ (z >> 27)) * 0x94d049bb133111eb) & M
        yield z ^ (z >> 31)

def ints(seed, n, lo, hi):
    g = stream(seed)
    return [lo + next(g) % (hi - lo + 1) for _ in range(n)]
