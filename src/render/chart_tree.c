/* chart_tree.c: reading the results tree's attributes for the charts. See
 * chart.h and chart_impl.h. */
#include "render/chart_impl.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

double chart_attr_num(xmlNodePtr n, const char *name)
{
    xmlChar *v = n ? xmlGetProp(n, X(name)) : NULL;
    double d = v ? strtod((const char *)v, NULL) : NAN;
    xmlFree(v);
    return d;
}

/* The attribute's value as a new string ("" when absent); free() it. */
char *chart_attr_str(xmlNodePtr n, const char *name)
{
    xmlChar *v = n ? xmlGetProp(n, X(name)) : NULL;
    char *s = strdup(v ? (const char *)v : "");
    xmlFree(v);
    return s;
}

bool chart_attr_is(xmlNodePtr n, const char *name, const char *want)
{
    xmlChar *v = n ? xmlGetProp(n, X(name)) : NULL;
    bool is = v && strcmp((const char *)v, want) == 0;
    xmlFree(v);
    return is;
}

xmlNodePtr chart_next_element(xmlNodePtr n, const char *name)
{
    for (; n; n = n->next)
        if (n->type == XML_ELEMENT_NODE && strcmp((const char *)n->name, name) == 0)
            return n;
    return NULL;
}

xmlNodePtr chart_figure(xmlNodePtr gpu, const char *name)
{
    FOR_EACH(f, gpu, "figure")
        if (chart_attr_is(f, "name", name))
            return f;
    return NULL;
}

/* The GPU's position in <gpus> (its series), or -1. */
int chart_gpu_index(xmlNodePtr gpus, xmlNodePtr est, xmlNodePtr *gpu_out)
{
    char *id = chart_attr_str(est, "gpu");
    int i = 0, found = -1;
    FOR_EACH(g, gpus, "gpu") {
        if (found < 0 && id && chart_attr_is(g, "id", id)) {
            found = i;
            if (gpu_out)
                *gpu_out = g;
        }
        i++;
    }
    free(id);
    return found;
}
