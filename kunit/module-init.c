// SPDX-License-Identifier: GPL-2.0
/*
 * /init of the initramfs that kunit/module-run boots: it runs the board
 * owner's commands of Documentation/board.md ("On a board"), which
 * module-run copies to /recipe, one a line, as a shell on a board would. It knows the
 * three commands the recipe uses: insmod FILE [PARAM...], mount -t TYPE
 * SOURCE DIR and cat FILE. First it mounts /proc and /sys, as a board's
 * own init has; then it powers the machine off.
 *
 * Each command is echoed as "recipe: $ COMMAND", its failure as
 * "recipe: error: ...", and what cat prints between "recipe: begin FILE"
 * and "recipe: end FILE", with the console quiet meanwhile so that no
 * kernel message lands among its lines.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/klog.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/syscall.h>

#define MAX_ARGS	16

static int error(const char *what, const char *arg)
{
	printf("recipe: error: %s %s: %s\n", what, arg, strerror(errno));
	return -1;
}

/* insmod FILE [PARAM...]: the parameters joined by spaces, as insmod does */
static int insmod(int argc, char **argv)
{
	char params[512] = "";
	int fd, i, ret;

	if (argc < 2)
		return error("insmod", "without a file");
	for (i = 2; i < argc; i++) {
		strncat(params, argv[i], sizeof(params) - strlen(params) - 2);
		strcat(params, " ");
	}
	fd = open(argv[1], O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return error("open", argv[1]);
	ret = syscall(__NR_finit_module, fd, params, 0);
	close(fd);
	return ret ? error("insmod", argv[1]) : 0;
}

static int do_mount(int argc, char **argv)
{
	if (argc != 5 || strcmp(argv[1], "-t"))
		return error("mount", "takes -t TYPE SOURCE DIR");
	if (mount(argv[3], argv[4], argv[2], 0, NULL))
		return error("mount", argv[4]);
	return 0;
}

static int cat(int argc, char **argv)
{
	char buf[4096];
	ssize_t n;
	int fd;

	if (argc != 2)
		return error("cat", "takes one file");
	fd = open(argv[1], O_RDONLY);
	if (fd < 0)
		return error("open", argv[1]);
	klogctl(8, NULL, 1);	/* SYSLOG_ACTION_CONSOLE_LEVEL: emergencies only */
	printf("recipe: begin %s\n", argv[1]);
	fflush(stdout);
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		fwrite(buf, 1, n, stdout);
	printf("recipe: end %s\n", argv[1]);
	fflush(stdout);
	klogctl(7, NULL, 0);	/* SYSLOG_ACTION_CONSOLE_ON */
	close(fd);
	return n < 0 ? error("read", argv[1]) : 0;
}

static int run(char *line)
{
	char *argv[MAX_ARGS + 1], *p;
	int argc = 0;

	p = strchr(line, '#');
	if (p)
		*p = '\0';
	for (p = strtok(line, " \t\n"); p && argc < MAX_ARGS; p = strtok(NULL, " \t\n"))
		argv[argc++] = p;
	argv[argc] = NULL;
	if (!argc)
		return 0;
	if (!strcmp(argv[0], "insmod"))
		return insmod(argc, argv);
	if (!strcmp(argv[0], "mount"))
		return do_mount(argc, argv);
	if (!strcmp(argv[0], "cat"))
		return cat(argc, argv);
	printf("recipe: error: unknown command %s\n", argv[0]);
	return -1;
}

int main(void)
{
	char line[512];
	FILE *f;

	mount("proc", "/proc", "proc", 0, NULL);
	mount("sysfs", "/sys", "sysfs", 0, NULL);
	setvbuf(stdout, NULL, _IOLBF, 0);
	f = fopen("/recipe", "r");
	if (!f) {
		error("open", "/recipe");
	} else {
		while (fgets(line, sizeof(line), f)) {
			line[strcspn(line, "\n")] = '\0';
			if (!line[strspn(line, " \t")] || line[strspn(line, " \t")] == '#')
				continue;
			printf("recipe: $ %s\n", line);
			if (run(line))
				break;
		}
		fclose(f);
	}
	printf("recipe: done\n");
	fflush(stdout);
	sync();
	reboot(RB_POWER_OFF);
	return 0;
}
