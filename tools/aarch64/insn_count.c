/* A QEMU TCG plugin that counts the guest instructions a process executes
 * and prints the total to stderr at exit, as "insns <count>". For
 * tools/test-aarch64.sh --count, which builds it against Debian's
 * qemu-plugin.h. Each translated block adds its instruction count to one
 * counter as it runs (an inline add, not atomic: count one thread). */
#include <inttypes.h>
#include <stdio.h>

#include <qemu-plugin.h>

QEMU_PLUGIN_EXPORT int qemu_plugin_version = QEMU_PLUGIN_VERSION;

static uint64_t count;

static void translated(qemu_plugin_id_t id, struct qemu_plugin_tb *tb) {
    (void)id;
    qemu_plugin_register_vcpu_tb_exec_inline(tb, QEMU_PLUGIN_INLINE_ADD_U64, &count,
                                             qemu_plugin_tb_n_insns(tb));
}

static void finished(qemu_plugin_id_t id, void *data) {
    (void)id;
    (void)data;
    fprintf(stderr, "insns %" PRIu64 "\n", count);
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info, int argc,
                                           char **argv) {
    (void)info;
    (void)argc;
    (void)argv;
    qemu_plugin_register_vcpu_tb_trans_cb(id, translated);
    qemu_plugin_register_atexit_cb(id, finished, NULL);
    return 0;
}
