// Sqlite: a small RAII layer over the sqlite3 C API for the measurement database — a
// connection that closes itself, prepared statements with bind/step/column helpers, and a
// transaction guard that rolls back unless committed. Every failure throws StoreError with
// SQLite's message prefixed by the database's description. Internal to core/store.
#pragma once

#include "store/StoreError.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

struct sqlite3;
struct sqlite3_stmt;

namespace beamscope::sqlite {

/// An open connection; closes on destruction.
class Db {
public:
    /// Opens (creating when `create`) the file at `path`; `what` prefixes error messages
    /// ("measurement database /x.sqlite"). `readOnly` opens an existing file for reading only
    /// (on a read-only file system too). Throws StoreError.
    Db(const std::string &path, const std::string &what, bool create = true,
       bool readOnly = false);
    ~Db();
    Db(const Db &) = delete;
    Db &operator=(const Db &) = delete;

    /// Runs SQL with no parameters and no rows of interest (DDL, PRAGMA, BEGIN...).
    void exec(const std::string &sql);
    /// Milliseconds SQLite retries a locked database before giving up.
    void busyTimeout(int ms);
    /// Row id of the last insert on this connection.
    std::int64_t lastInsertId() const;
    /// Rows changed by the last statement.
    std::int64_t changes() const;
    /// True when SQLite could only open the file read-only.
    bool readOnly() const;
    /// Throws StoreError("<what>: <SQLite's message>") for result code `rc`.
    [[noreturn]] void fail(int rc) const;
    const std::string &what() const { return m_what; }
    sqlite3 *handle() const { return m_db; }

private:
    sqlite3 *m_db = nullptr;
    std::string m_what;
};

/// A prepared statement; parameters are 1-based, columns 0-based.
class Stmt {
public:
    Stmt(Db &db, const std::string &sql);
    ~Stmt();
    Stmt(const Stmt &) = delete;
    Stmt &operator=(const Stmt &) = delete;

    Stmt &bind(int i, const std::string &text);
    Stmt &bind(int i, std::int64_t value);
    Stmt &bind(int i, int value) { return bind(i, std::int64_t(value)); }
    /// A non-finite value binds NULL.
    Stmt &bind(int i, double value);
    Stmt &bindNull(int i);
    /// Binds a BLOB (empty: NULL).
    Stmt &bindBlob(int i, const void *data, size_t bytes);
    /// Binds NULL when absent.
    Stmt &bind(int i, const std::optional<std::string> &text);

    /// Next row: true when a row is ready, false when done. Throws StoreError on failure.
    bool step();
    /// Steps to completion (for statements without rows).
    void run();
    /// Clears bindings and rewinds, to run again.
    void reset();

    bool isNull(int column) const;
    std::string text(int column) const;
    std::int64_t int64(int column) const;
    /// NaN for NULL.
    double real(int column) const;
    std::vector<unsigned char> blob(int column) const;

private:
    Db &m_db;
    sqlite3_stmt *m_stmt = nullptr;
};

/// BEGIN IMMEDIATE on construction; ROLLBACK on destruction unless commit() ran.
class Transaction {
public:
    explicit Transaction(Db &db);
    ~Transaction();
    Transaction(const Transaction &) = delete;
    Transaction &operator=(const Transaction &) = delete;
    void commit();

private:
    Db &m_db;
    bool m_done = false;
};

} // namespace beamscope::sqlite
