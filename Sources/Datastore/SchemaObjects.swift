/// The objects a datastore's schema holds (`sqlite_schema`: type, name, table, SQL text), and
/// exactly those keyshape's migrations create at each version.
///
/// A datastore is a file anyone may hand over (an auditor receives them with a sweep's
/// results). A trigger planted in it (`AFTER INSERT ON findings ... DELETE`) made findings
/// vanish as they were recorded while `report` exited 0; a view, an index with a WHERE, a
/// changed CHECK or DEFAULT can each change what a query returns. So a datastore opens only
/// when its schema is, byte for byte, what this keyshape's migrations would have made at its
/// version: anything else (an extra table, index, view or trigger, a missing or changed one)
/// is refused before a statement touches a table, and the file is left as it was.
///
/// The expected rows are made by running the migrations on an in-memory database with the
/// same sqlite, so `ALTER TABLE ... ADD COLUMN`'s rewrite of a table's SQL text is sqlite's
/// own, not a copy kept here.
struct SchemaObjects: Equatable, Sendable {
    /// One row of `sqlite_schema`, as bytes (compared exactly: no Unicode equivalence, no
    /// repair of invalid UTF-8). `sql` is nil for the indexes sqlite makes for UNIQUE and
    /// PRIMARY KEY constraints.
    struct Object: Hashable, Sendable {
        var type: [UInt8]
        var name: [UInt8]
        var table: [UInt8]
        var sql: [UInt8]?
    }

    var objects: Set<Object>

    /// What `db`'s `sqlite_schema` holds now.
    static func read(_ db: Database) throws -> SchemaObjects {
        let rows = try db.prepare("SELECT type, name, tbl_name, sql FROM sqlite_schema").rows { s in
            Object(type: s.bytes(0), name: s.bytes(1), table: s.bytes(2), sql: s.isNull(3) ? nil : s.bytes(3))
        }
        return SchemaObjects(objects: Set(rows))
    }

    /// `expected[v]`: the schema after migrations 0 ..< v (v = 0 is the empty schema), made
    /// once per process.
    static let expected: Result<[SchemaObjects], DatastoreError> = {
        do {
            let db = try Database(path: ":memory:", mode: .create)
            var versions = [try read(db)]
            for migration in Schema.migrations {
                try db.execute(migration)
                versions.append(try read(db))
            }
            return .success(versions)
        } catch let error as DatastoreError {
            return .failure(error)
        } catch {
            return .failure(DatastoreError(.sqlite, "cannot make the expected datastore schema"))
        }
    }()

    /// Throws unless `db`'s schema is exactly what migrations 0 ..< `version` create. The
    /// message names the kinds of object that differ (keyshape's words), never a name or SQL
    /// text from the file.
    static func check(_ db: Database, version: Int64) throws {
        let all = try expected.get()
        guard version >= 0, Int(version) < all.count else {
            throw DatastoreError(.foreign, "not a keyshape datastore (an unknown schema version); nothing was changed")
        }
        let want = all[Int(version)].objects
        let have = try read(db).objects
        guard have != want else { return }
        let wantNames = Set(want.map { [$0.type, $0.name] })
        var kinds: [String] = []
        for object in have.subtracting(want) {
            let kind = Self.word(object.type)
            kinds.append(wantNames.contains([object.type, object.name]) ? "a changed \(kind)" : "an added \(kind)")
        }
        let haveNames = Set(have.map { [$0.type, $0.name] })
        for object in want.subtracting(have) where !haveNames.contains([object.type, object.name]) {
            kinds.append("a missing \(Self.word(object.type))")
        }
        let said = Array(Set(kinds)).sorted().joined(separator: ", ")
        throw DatastoreError(.tampered, "the datastore's schema is not the one keyshape creates (\(said)): it was changed outside keyshape, and is refused; nothing was changed")
    }

    /// sqlite's word for an object's type when it is one of its four, else "object": the
    /// type column is the file's data.
    private static func word(_ type: [UInt8]) -> String {
        let text = String(decoding: type, as: UTF8.self)
        return ["table", "index", "view", "trigger"].contains(text) ? text : "object"
    }
}
