a = "6.12.118-mseal-preseries"
b = "6.12.118-mseal-patched"
na = 5
nb = 5
n = 8
with_module = 1
names = "mmap1 pagemove mprotect madvise munmap-vmas-001 munmap-vmas-004 munmap-vmas-016 munmap-vmas-064"
