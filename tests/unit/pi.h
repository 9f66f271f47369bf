/*
 * For the unit tests that fill a public-inbox v2 epoch by hand: one
 * commit per mail, the mail as the blob "m" (what archive.c reads).
 */
#ifndef T_PI_H
#define T_PI_H

#include <git2.h>
#include <stdbool.h>
#include <string.h>

static void pi_add_mail(git_repository *repo, const char *text)
{
	git_oid blob, tree, commit, parent;
	git_treebuilder *tb = NULL;
	git_signature *sig = NULL;
	git_tree *t = NULL;
	git_commit *p = NULL;
	bool has_parent = !git_reference_name_to_id(&parent, repo, "HEAD");

	git_blob_create_from_buffer(&blob, repo, text, strlen(text));
	git_treebuilder_new(&tb, repo, NULL);
	git_treebuilder_insert(NULL, tb, "m", &blob, GIT_FILEMODE_BLOB);
	git_treebuilder_write(&tree, tb);
	git_tree_lookup(&t, repo, &tree);
	git_signature_new(&sig, "t", "t@example.org", 1700000000, 0);
	if (has_parent)
		git_commit_lookup(&p, repo, &parent);
	git_commit_create_v(&commit, repo, "HEAD", sig, sig, NULL, "mail", t,
			    has_parent ? 1 : 0, p);
	git_commit_free(p);
	git_tree_free(t);
	git_signature_free(sig);
	git_treebuilder_free(tb);
}

#endif
