# SPDX-License-Identifier: GPL-2.0
# MIPS32r2 (24Kc) big-endian on QEMU's Malta, software DMA coherency
# (the GT-64120 system controller has no IOCU: the kernel log says
# "Software DMA cache coherency enabled"), so every mapping runs
# arch/mips/mm/dma-noncoherent.c. QEMU models no data cache. The
# syscon reboot driver lets kunit_shutdown=reboot end QEMU (-no-reboot).
from ..qemu_config import QemuArchParams

QEMU_ARCH = QemuArchParams(linux_arch='mips',
			   kconfig='''
CONFIG_MIPS_MALTA=y
CONFIG_CPU_MIPS32_R2=y
CONFIG_CPU_BIG_ENDIAN=y
CONFIG_PCI=y
CONFIG_SERIAL_8250=y
CONFIG_SERIAL_8250_CONSOLE=y
CONFIG_POWER_RESET=y
CONFIG_POWER_RESET_SYSCON=y''',
			   qemu_arch='mips',
			   kernel_path='vmlinux',
			   kernel_command_line='console=ttyS0',
			   extra_qemu_params=['-machine', 'malta', '-cpu', '24Kc', '-m', '256'])
