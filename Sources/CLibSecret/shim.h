#ifndef KEYSHAPE_CLIBSECRET_SHIM_H
#define KEYSHAPE_CLIBSECRET_SHIM_H

// libsecret's convenience API is variadic and its schema struct embeds a
// fixed 32-element array; Swift imports neither well, so the few places that
// need them are wrapped here as small inline helpers.
#include <libsecret/secret.h>

// Every keyshape item carries the same four attributes. The schema name is a
// parameter so tests can seed items that belong to "another app".
static inline SecretSchema *keyshape_schema_new(const char *name) {
    return secret_schema_new(name, SECRET_SCHEMA_NONE,
                             "app", SECRET_SCHEMA_ATTRIBUTE_STRING,
                             "connection", SECRET_SCHEMA_ATTRIBUTE_STRING,
                             "kind", SECRET_SCHEMA_ATTRIBUTE_STRING,
                             "reference", SECRET_SCHEMA_ATTRIBUTE_STRING,
                             NULL);
}

// Keys and values are copied and owned by the table, so Swift's temporary
// C strings can go away as soon as the insert returns.
static inline GHashTable *keyshape_attributes_new(void) {
    return g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
}

static inline void keyshape_attributes_insert(GHashTable *table, const char *key, const char *value) {
    g_hash_table_insert(table, g_strdup(key), g_strdup(value));
}

static inline const char *keyshape_attributes_lookup(GHashTable *table, const char *key) {
    return (const char *)g_hash_table_lookup(table, key);
}

static inline SecretRetrievable *keyshape_list_item(GList *node) {
    return SECRET_RETRIEVABLE(node->data);
}

static inline void keyshape_retrievable_list_free(GList *list) {
    g_list_free_full(list, g_object_unref);
}

static inline const char *keyshape_error_domain(const GError *error) {
    return g_quark_to_string(error->domain);
}

#endif
