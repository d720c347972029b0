// SPDX-License-Identifier: GPL-2.0
/*
 * /init of the initramfs that arch-arm/benchmark/run boots: bind a platform
 * device to the dma_map_benchmark driver through driver_override, run
 * /dma_map_benchmark (tools/dma) over a few settings,
 * check that the ioctl rejects unknown flags and non-zero padding, then
 * power off. Every result is a KTAP line that arch-arm/benchmark/run reads.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <linux/types.h>
#include <linux/map_benchmark.h>

#define PLATFORM "/sys/bus/platform"

static int test_num;

static void ktap(int ok, const char *name)
{
	printf("%sok %d %s\n", ok ? "" : "not ", ++test_num, name);
	fflush(stdout);
}

static int write_file(const char *path, const char *value)
{
	int fd = open(path, O_WRONLY);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = write(fd, value, strlen(value));
	close(fd);
	return n < 0 ? -errno : 0;
}

/* Does platform device @dev have "dma-coherent" in its device tree node? */
static int coherent(const char *dev)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), PLATFORM "/devices/%s/of_node/dma-coherent",
		 dev);
	return access(path, F_OK) == 0;
}

/*
 * Bind an unbound platform device to dma_map_benchmark, preferring one
 * that is not DMA coherent, so that mappings take the cache maintenance
 * path a board's devices take. Returns 0 or -errno.
 */
static int bind_device(void)
{
	char path[PATH_MAX], pick[NAME_MAX + 1] = "";
	struct dirent *d;
	struct stat st;
	DIR *dir;
	int ret;

	dir = opendir(PLATFORM "/devices");
	if (!dir)
		return -errno;
	while ((d = readdir(dir))) {
		if (d->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), PLATFORM "/devices/%s/driver",
			 d->d_name);
		if (lstat(path, &st) == 0)
			continue;
		if (!pick[0] || (coherent(pick) && !coherent(d->d_name)))
			snprintf(pick, sizeof(pick), "%s", d->d_name);
	}
	closedir(dir);
	if (!pick[0])
		return -ENODEV;

	snprintf(path, sizeof(path), PLATFORM "/devices/%s/driver_override",
		 pick);
	ret = write_file(path, "dma_map_benchmark");
	if (!ret)
		ret = write_file(PLATFORM "/drivers/dma_map_benchmark/bind", pick);
	printf("# bound %s (%s)\n", pick,
	       coherent(pick) ? "dma-coherent" : "not dma-coherent");
	return ret;
}

/* Run /dma_map_benchmark with @args; its output goes to the console. */
static int run_benchmark(char *const args[])
{
	int status;
	pid_t pid;

	pid = fork();
	if (pid == 0) {
		execv("/dma_map_benchmark", args);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) < 0)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* The ioctl with one field changed from a valid request: errno or 0. */
static int raw_ioctl(int flags, int pad)
{
	struct map_benchmark map;
	int fd, ret = 0;

	fd = open("/sys/kernel/debug/dma_map_benchmark", O_RDWR);
	if (fd < 0)
		return -1;
	memset(&map, 0, sizeof(map));
	map.threads = 1;
	map.seconds = 1;
	map.node = -1;
	map.dma_bits = 32;
	map.dma_dir = DMA_MAP_FROM_DEVICE;
	map.granule = 1;
	map.flags = flags;
	map.expansion[sizeof(map.expansion) - 1] = pad;
	if (ioctl(fd, DMA_MAP_BENCHMARK, &map))
		ret = errno;
	close(fd);
	return ret;
}

int main(void)
{
	static char *const runs[][16] = {
		{ "dma_map_benchmark", "-d", "2", "-g", "1", "-s", "1", NULL },
		{ "dma_map_benchmark", "-d", "2", "-g", "1", "-s", "1", "-D", NULL },
		{ "dma_map_benchmark", "-d", "2", "-g", "1", "-s", "1", "-C", NULL },
		{ "dma_map_benchmark", "-d", "2", "-g", "256", "-s", "1", NULL },
		{ "dma_map_benchmark", "-d", "2", "-g", "256", "-s", "1", "-D", NULL },
		{ "dma_map_benchmark", "-d", "2", "-g", "256", "-s", "1", "-C", NULL },
	};
	char label[256];
	unsigned int i;
	int ret;

	mount("proc", "/proc", "proc", 0, NULL);
	mount("sysfs", "/sys", "sysfs", 0, NULL);
	mount("debugfs", "/sys/kernel/debug", "debugfs", 0, NULL);

	printf("KTAP version 1\n1..%zu\n", 4 + sizeof(runs) / sizeof(runs[0]));
	ret = bind_device();
	if (ret)
		printf("# binding failed: %s\n", strerror(-ret));
	ktap(!ret, "bind_dma_map_benchmark");

	for (i = 0; i < sizeof(runs) / sizeof(runs[0]); i++) {
		char *const *a = runs[i];
		int n = 0;

		n = snprintf(label, sizeof(label), "run");
		for (a = runs[i] + 1; *a; a++)
			n += snprintf(label + n, sizeof(label) - n, "_%s",
				      **a == '-' ? *a + 1 : *a);
		ktap(run_benchmark(runs[i]) == 0, label);
	}
	ret = raw_ioctl(0x80, 0);
	printf("# unknown flag 0x80: %s\n", ret ? strerror(ret) : "accepted");
	ktap(ret == EINVAL, "unknown_flag_rejected");
	ret = raw_ioctl(0, 1);
	printf("# non-zero padding: %s\n", ret ? strerror(ret) : "accepted");
	ktap(ret == EINVAL, "nonzero_padding_rejected");
	ret = raw_ioctl(DMA_MAP_BENCH_CHECK, 0);
	printf("# check without dirty: %s\n", ret ? strerror(ret) : "accepted");
	ktap(ret == EINVAL, "check_without_dirty_rejected");

	fflush(stdout);
	sync();
	reboot(RB_POWER_OFF);
	return 0;
}
