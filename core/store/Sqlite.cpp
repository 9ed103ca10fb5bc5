// The sqlite3 C API behind Db, Stmt and Transaction: open/close, prepare/bind/step/column, and
// one place (Db::fail) that turns result codes into one-line StoreErrors.
#include "store/Sqlite.h"

#include <sqlite3.h>

#include <cmath>
#include <cstring>

namespace beamscope::sqlite {

Db::Db(const std::string &path, const std::string &what, bool create, bool readOnly)
    : m_what(what) {
    const int flags = readOnly ? SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX
                               : SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0) |
                                     SQLITE_OPEN_NOMUTEX;
    const int rc = sqlite3_open_v2(path.c_str(), &m_db, flags, nullptr);
    if (rc != SQLITE_OK) {
        const std::string message = m_db ? sqlite3_errmsg(m_db) : sqlite3_errstr(rc);
        sqlite3_close(m_db);
        m_db = nullptr;
        throw StoreError(m_what + ": " + message);
    }
    sqlite3_extended_result_codes(m_db, 1);
}

Db::~Db() {
    sqlite3_close_v2(m_db);
}

void Db::exec(const std::string &sql) {
    const int rc = sqlite3_exec(m_db, sql.c_str(), nullptr, nullptr, nullptr);
    if (rc != SQLITE_OK) fail(rc);
}

void Db::busyTimeout(int ms) {
    sqlite3_busy_timeout(m_db, ms);
}

std::int64_t Db::lastInsertId() const {
    return sqlite3_last_insert_rowid(m_db);
}

std::int64_t Db::changes() const {
    return sqlite3_changes64(m_db);
}

bool Db::readOnly() const {
    return sqlite3_db_readonly(m_db, "main") == 1;
}

void Db::fail(int rc) const {
    // sqlite3_errmsg describes the last failure on the connection; errstr the code alone.
    std::string message = sqlite3_errcode(m_db) == rc ? sqlite3_errmsg(m_db) : sqlite3_errstr(rc);
    if ((rc & 0xff) == SQLITE_BUSY || (rc & 0xff) == SQLITE_LOCKED)
        message += " (another process holds it)";
    for (char &c : message) {
        if (c == '\n' || c == '\r') c = ' ';
    }
    throw StoreError(m_what + ": " + message);
}

Stmt::Stmt(Db &db, const std::string &sql) : m_db(db) {
    const int rc = sqlite3_prepare_v2(db.handle(), sql.c_str(), int(sql.size()), &m_stmt, nullptr);
    if (rc != SQLITE_OK) {
        sqlite3_finalize(m_stmt);
        m_stmt = nullptr;
        db.fail(rc);
    }
}

Stmt::~Stmt() {
    sqlite3_finalize(m_stmt);
}

Stmt &Stmt::bind(int i, const std::string &text) {
    const int rc = sqlite3_bind_text(m_stmt, i, text.data(), int(text.size()), SQLITE_TRANSIENT);
    if (rc != SQLITE_OK) m_db.fail(rc);
    return *this;
}

Stmt &Stmt::bind(int i, std::int64_t value) {
    const int rc = sqlite3_bind_int64(m_stmt, i, value);
    if (rc != SQLITE_OK) m_db.fail(rc);
    return *this;
}

Stmt &Stmt::bind(int i, double value) {
    if (!std::isfinite(value)) return bindNull(i);
    const int rc = sqlite3_bind_double(m_stmt, i, value);
    if (rc != SQLITE_OK) m_db.fail(rc);
    return *this;
}

Stmt &Stmt::bindNull(int i) {
    const int rc = sqlite3_bind_null(m_stmt, i);
    if (rc != SQLITE_OK) m_db.fail(rc);
    return *this;
}

Stmt &Stmt::bindBlob(int i, const void *data, size_t bytes) {
    if (bytes == 0) return bindNull(i);
    const int rc = sqlite3_bind_blob64(m_stmt, i, data, bytes, SQLITE_TRANSIENT);
    if (rc != SQLITE_OK) m_db.fail(rc);
    return *this;
}

Stmt &Stmt::bind(int i, const std::optional<std::string> &text) {
    return text ? bind(i, *text) : bindNull(i);
}

bool Stmt::step() {
    const int rc = sqlite3_step(m_stmt);
    if (rc == SQLITE_ROW) return true;
    if (rc == SQLITE_DONE) return false;
    m_db.fail(rc);
}

void Stmt::run() {
    while (step()) {
    }
}

void Stmt::reset() {
    sqlite3_reset(m_stmt);
    sqlite3_clear_bindings(m_stmt);
}

bool Stmt::isNull(int column) const {
    return sqlite3_column_type(m_stmt, column) == SQLITE_NULL;
}

std::string Stmt::text(int column) const {
    const unsigned char *p = sqlite3_column_text(m_stmt, column);
    return p ? std::string(reinterpret_cast<const char *>(p),
                           size_t(sqlite3_column_bytes(m_stmt, column)))
             : std::string();
}

std::int64_t Stmt::int64(int column) const {
    return sqlite3_column_int64(m_stmt, column);
}

double Stmt::real(int column) const {
    return isNull(column) ? std::nan("") : sqlite3_column_double(m_stmt, column);
}

std::vector<unsigned char> Stmt::blob(int column) const {
    const void *p = sqlite3_column_blob(m_stmt, column);
    const int bytes = sqlite3_column_bytes(m_stmt, column);
    std::vector<unsigned char> out(size_t(bytes > 0 ? bytes : 0));
    if (p && bytes > 0) std::memcpy(out.data(), p, out.size());
    return out;
}

Transaction::Transaction(Db &db) : m_db(db) {
    m_db.exec("BEGIN IMMEDIATE");
}

Transaction::~Transaction() {
    if (!m_done) sqlite3_exec(m_db.handle(), "ROLLBACK", nullptr, nullptr, nullptr);
}

void Transaction::commit() {
    m_db.exec("COMMIT");
    m_done = true;
}

} // namespace beamscope::sqlite
