/*
 * mke2fs/e2fsck for the filesystem workloads: images from a workload's
 * JSON, and the verdict of a read-only fsck afterwards.
 */
#include "fsimage.h"
#include "child.h"

#include <jansson.h>

#define FSIMAGE_JSON_MAX (1024 * 1024)
#define MKE2FS_TIMEOUT_MS (60 * 1000)
#define E2FSCK_TIMEOUT_MS (120 * 1000)

int fsimage_load(struct fsimage_set *out, const char *path)
{
	struct strbuf buf = STRBUF_INIT;
	json_error_t jerr;
	json_t *root = NULL, *images, *im;
	const char *size;
	size_t i;
	int ret;

	if ((ret = strbuf_read_file(&buf, path, FSIMAGE_JSON_MAX)) < 0)
		goto out;
	ret = WW_EINPUT;
	root = json_loadb(buf.buf, buf.len, 0, &jerr);
	if (!root) {
		error_code(ret, "%s: line %d: %s", path, jerr.line, jerr.text);
		goto out;
	}
	size = json_string_value(json_object_get(root, "image_size"));
	images = json_object_get(root, "images");
	if (!size || !json_is_array(images) || !json_array_size(images)) {
		error_code(ret, "%s: needs image_size and images", path);
		goto out;
	}
	out->size = xstrdup(size);
	json_array_foreach(images, i, im) {
		const char *name = json_string_value(json_object_get(im, "name"));
		const char *feat = json_string_value(json_object_get(im, "features"));
		json_int_t bs = json_integer_value(json_object_get(im, "block_size"));
		struct fsimage_spec *s;

		if (!name || !*name || strchr(name, '/') || name[0] == '.' || !feat ||
		    (bs != 1024 && bs != 2048 && bs != 4096)) {
			error_code(ret, "%s: images[%zu]: needs name, features, "
				   "block_size 1024/2048/4096", path, i);
			goto out_release;
		}
		ALLOC_GROW(out->specs, out->nr + 1, out->alloc);
		s = &out->specs[out->nr++];
		s->name = xstrdup(name);
		s->features = xstrdup(feat);
		s->block_size = bs;
	}
	ret = 0;
	goto out;
out_release:
	fsimage_set_release(out);
out:
	json_decref(root);
	strbuf_release(&buf);
	return ret;
}

void fsimage_set_release(struct fsimage_set *set)
{
	for (size_t i = 0; i < set->nr; i++) {
		free(set->specs[i].name);
		free(set->specs[i].features);
	}
	free(set->specs);
	free(set->size);
	memset(set, 0, sizeof(*set));
}

int fsimage_make(struct strbuf *img, const struct fsimage_set *set,
		 const struct fsimage_spec *spec, const char *dir,
		 const char *srcdir)
{
	struct child c = CHILD_INIT;
	int ret;

	strbuf_addf(img, "%s/%s.img", dir, spec->name);
	strvec_pushl(&c.args, "mke2fs", "-q", "-t", "ext4", "-F", "-O",
		     spec->features, NULL);
	strvec_pushf(&c.args, "-b%u", spec->block_size);
	if (srcdir)
		strvec_pushl(&c.args, "-d", srcdir, NULL);
	strvec_pushl(&c.args, img->buf, set->size, NULL);
	strvec_push(&c.env, "LC_ALL=C");
	c.timeout_ms = MKE2FS_TIMEOUT_MS;
	c.flags = CHILD_STDERR_TO_OUT;
	ret = child_run_ok(&c);
	if (ret < 0)
		error_prefix(ret, "image '%s'", spec->name);
	child_release(&c);
	return ret;
}

/* e2fsck's lines that say nothing about damage. */
static bool fsck_noise(const char *line)
{
	return !*line || !strncmp(line, "e2fsck ", 7) || !strncmp(line, "Pass ", 5);
}

int fsimage_check(struct fsimage_fsck *out, const char *img)
{
	struct child c = CHILD_INIT;
	int ret, n = 0;
	char *line, *save = NULL;

	strvec_pushl(&c.args, "e2fsck", "-fn", img, NULL);
	strvec_push(&c.env, "LC_ALL=C");
	c.timeout_ms = E2FSCK_TIMEOUT_MS;
	c.flags = CHILD_STDERR_TO_OUT;
	if ((ret = child_run(&c)) < 0)
		goto out;
	if (c.status != 0 && c.status != 4) {
		ret = child_error(&c, "e2fsck -fn '%s' failed with status %d",
				  img, c.status);
		goto out;
	}
	out->clean = c.status == 0;
	for (line = strtok_r(c.out.buf, "\n", &save);
	     !out->clean && line && n < FSIMAGE_FSCK_LINES;
	     line = strtok_r(NULL, "\n", &save)) {
		if (fsck_noise(line))
			continue;
		strbuf_addf(&out->output, "%s\n", line);
		n++;
	}
	ret = 0;
out:
	child_release(&c);
	return ret;
}

void fsimage_fsck_release(struct fsimage_fsck *f)
{
	strbuf_release(&f->output);
	f->clean = false;
}
