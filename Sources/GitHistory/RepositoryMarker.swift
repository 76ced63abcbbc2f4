import Foundation
#if canImport(Glibc)
import Glibc
#endif

extension Git {
    /// Whether `path` is in something git would take for a repository, judged without git:
    /// a `.git` entry (folder, file or anything else) in `path` or a folder above it, or a
    /// folder that looks like a bare repository (`HEAD`, `objects`, `refs`). Used to tell
    /// "there is no history here" (a plain folder) from "there is a repository keyshape
    /// could not read" (git missing, a broken `.git`), which is an error.
    public static func repositoryMarker(above path: String) -> String? {
        var dir = URL(fileURLWithPath: path).standardizedFileURL.path
        while true {
            var st = stat()
            if lstat(dir + "/.git", &st) == 0 { return dir + "/.git" }
            if lstat(dir + "/HEAD", &st) == 0, (st.st_mode & S_IFMT) == S_IFREG,
               stat(dir + "/objects", &st) == 0, (st.st_mode & S_IFMT) == S_IFDIR,
               stat(dir + "/refs", &st) == 0, (st.st_mode & S_IFMT) == S_IFDIR {
                return dir
            }
            if dir == "/" || dir.isEmpty { return nil }
            let parent = (dir as NSString).deletingLastPathComponent
            if parent == dir { return nil }
            dir = parent
        }
    }
}
