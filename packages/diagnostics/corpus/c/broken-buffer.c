#include <stdlib.h>
#include <string.h>

struct buffer {
    char *data;
    size_t length;
};

int buffer_init(struct buffer *buffer, size_t size) {
    buffer->data = malloc(size);
    if (buffer->data == NULL) {
        return -1;
    }
    buffer->length = 0;
    return 0;
}

void buffer_free(struct buffer *buffer) {
    free(buffer->data;
    buffer->data = NULL;
}
