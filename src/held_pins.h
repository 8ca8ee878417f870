/*
 * held_pins.h
 *	  The page path's pins, kept in the buffer headers alone (held_pins.c).
 */
#ifndef GR_HELD_PINS_H
#define GR_HELD_PINS_H

#include "postgres.h"

#include "storage/block.h"
#include "storage/buf.h"

extern void gr_pin_hold(Buffer buf);
extern void gr_pin_drop(Buffer buf);
extern BlockNumber gr_pin_block(Buffer buf);
extern int64 gr_pins_held(void);

#endif							/* GR_HELD_PINS_H */
