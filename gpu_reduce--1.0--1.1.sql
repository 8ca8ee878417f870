/*
 * gpu_reduce--1.0--1.1.sql: ALTER EXTENSION gpu_reduce UPDATE from 1.0 to 1.1.
 *
 * Every object added in 1.1 goes into this file AND into gpu_reduce--1.1.sql,
 * the install script of a fresh 1.1 (sql/upgrade.sql checks that the two
 * give the same catalog).  A changed 1.0 object is changed here with
 * CREATE OR REPLACE or ALTER, never by editing gpu_reduce--1.0.sql.
 *
 * 1.1 has added no SQL objects yet: the library of 1.1 serves the 1.0
 * functions unchanged, so this script has nothing to do.
 */

-- complain if script is sourced in psql, rather than via ALTER EXTENSION
\echo Use "ALTER EXTENSION gpu_reduce UPDATE TO '1.1'" to load this file. \quit
