/* The GRID superscalar master API. Usable from C and C++.
 *
 * A master program calls GS_On() once, then the operations declared in its IDL
 * file as ordinary functions (each call becomes a task that may run in
 * parallel), GS_Open/GS_FOpen when it touches a file itself, and GS_Off() at
 * the end. */
#ifndef GS_GS_H_
#define GS_GS_H_

#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Open modes for GS_Open and GS_FOpen. */
enum { R = 0, W = 1, A = 2 };

/* Starts the runtime. Returns 0, or -1 with a message on stderr. */
int GS_On(void);

/* Waits for every task, puts the final version of each file under its user
 * name, prints a summary and stops the runtime. Returns 0 when every task
 * succeeded and `code` was 0, otherwise non-zero. */
int GS_Off(int code);

/* Waits until every task submitted so far has finished. */
void GS_Barrier(void);

/* open(2)/close(2) for files that tasks use. Reading waits only for the task
 * that writes the version being read; writing makes a new version that later
 * tasks see once the descriptor is closed. Returns -1 with errno set on
 * failure. */
int GS_Open(const char* name, int mode);
int GS_Close(int fd);

/* The same through stdio. Returns NULL with errno set on failure. */
FILE* GS_FOpen(const char* name, int mode);
int GS_FClose(FILE* file);

#ifdef __cplusplus
}
#endif

#endif /* GS_GS_H_ */
