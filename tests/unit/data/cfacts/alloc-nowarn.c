/* Made up: a WARN after allocations that do not warn when they fail, or whose flags are not written out. */
static int alloc_nowarn(gfp_t gfp)
{
	void *a, *b, *c, *d;

	a = kzalloc(64, GFP_KERNEL | __GFP_NOWARN);
	WARN_ON(!a);
	b = kzalloc(64, gfp);
	WARN_ON(!b);
	c = kzalloc(64, GFP_NOWAIT);
	WARN_ON(!c);
	d = kzalloc(64, GFP_KERNEL);
	WARN_ON(!d);
	return 0;
}
