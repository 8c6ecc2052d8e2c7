/*
 * mkddp - write the synthetic DDP package ice 6.1 loads as intel/ice/ddp/ice.pkg.
 *
 *   mkddp -o OUT.pkg [--download] [--pkg-version X.Y.Z.W] [--name NAME] [--track-id N]
 *
 * Without options the package is the one the firmware model reports as active at power-on
 * (emu/fw/ddp_format.h), so ice logs "The DDP package was successfully loaded". Exit status 0 on
 * success, 1 on an I/O error, 2 on a usage error.
 */
#include <stdio.h>
#include <stdlib.h>
#include "ddp_gen.h"

static gchar *opt_out;
static gboolean opt_download;
static gchar *opt_version;
static gchar *opt_name;
static gchar *opt_track_id;

static const GOptionEntry entries[] = {
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &opt_out, "Write the package to FILE (required)",
      "FILE" },
    { "download", 'd', 0, G_OPTION_ARG_NONE, &opt_download,
      "Start with a configuration buffer, so ice downloads it with AQ 0x0C40", NULL },
    { "pkg-version", 'V', 0, G_OPTION_ARG_STRING, &opt_version,
      "Package version (default " G_STRINGIFY(DDP_SYNTH_VER_MAJOR) "."
      G_STRINGIFY(DDP_SYNTH_VER_MINOR) "." G_STRINGIFY(DDP_SYNTH_VER_UPDATE) "."
      G_STRINGIFY(DDP_SYNTH_VER_DRAFT) ")", "X.Y.Z.W" },
    { "name", 'n', 0, G_OPTION_ARG_STRING, &opt_name,
      "Package name, at most 27 characters (default \"" DDP_SYNTH_NAME "\")", "NAME" },
    { "track-id", 't', 0, G_OPTION_ARG_STRING, &opt_track_id, "Track id (default "
      G_STRINGIFY(DDP_SYNTH_TRACK_ID) ")", "N" },
    { NULL, 0, 0, 0, NULL, NULL, NULL },
};

static int usage_error(const char *msg)
{
    fprintf(stderr, "mkddp: %s\nTry 'mkddp --help' for usage.\n", msg);
    return 2;
}

int main(int argc, char **argv)
{
    g_autoptr(GOptionContext) ctx = g_option_context_new("- write a synthetic ice DDP package");
    g_autoptr(GError) err = NULL;
    g_autofree uint8_t *pkg = NULL;
    DdpGenSpec spec;
    size_t len;

    g_option_context_add_main_entries(ctx, entries, NULL);
    if (!g_option_context_parse(ctx, &argc, &argv, &err)) {
        return usage_error(err->message);
    }
    if (argc > 1) {
        g_autofree gchar *msg = g_strdup_printf("unexpected argument '%s'", argv[1]);
        return usage_error(msg);
    }
    if (!opt_out || !*opt_out) {
        return usage_error("an output file is required (-o FILE)");
    }

    ddp_gen_spec_default(&spec);
    spec.download = opt_download;
    if (opt_version && !ddp_gen_parse_version(opt_version, spec.ver, &err)) {
        return usage_error(err->message);
    }
    if (opt_name && !ddp_gen_set_name(&spec, opt_name, &err)) {
        return usage_error(err->message);
    }
    if (opt_track_id) {
        guint64 n;

        if (!g_ascii_string_to_unsigned(opt_track_id, 0, 0, G_MAXUINT32, &n, &err)) {
            return usage_error(err->message);
        }
        spec.track_id = n;
    }
    if (spec.ver[DDP_VER_MAJOR] != DDP_SUPP_VER_MAJOR ||
        spec.ver[DDP_VER_MINOR] != DDP_SUPP_VER_MINOR) {
        fprintf(stderr, "mkddp: warning: ice 6.1 accepts only %d.%d.x.x packages; "
                "this one makes it enter safe mode\n", DDP_SUPP_VER_MAJOR, DDP_SUPP_VER_MINOR);
    }

    pkg = ddp_gen_build(&spec, &len);
    if (!g_file_set_contents(opt_out, (const gchar *)pkg, len, &err)) {
        fprintf(stderr, "mkddp: %s\n", err->message);
        return 1;
    }
    return 0;
}
