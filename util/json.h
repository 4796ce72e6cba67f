/* util/json.h - the few pieces of JSON text the grading output writes. */
#ifndef UTIL_JSON_H
#define UTIL_JSON_H
#include <stdio.h>

/* s as a JSON string, quotes included: control characters, quote and
 * backslash escaped, bytes that are not valid UTF-8 written as \u00XX of
 * the byte (so the document always parses). NULL writes null. */
void json_put_string(FILE *f, const char *s);

#endif
