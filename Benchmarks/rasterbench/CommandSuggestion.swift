/// A first argument that is not a command: `run` (the default command)
/// takes no positional argument, so `rasterbench comapre a.csv b.csv` is a
/// mistyped command, answered with the nearest command's name rather than
/// argument-parser's "3 unexpected arguments".
enum CommandSuggestion {
    /// The error for `arguments` when their first is neither an option nor
    /// one of `commands`, else nil.
    static func unknownCommand(_ arguments: [String], commands: [String]) -> String? {
        guard let first = arguments.first, !first.hasPrefix("-"), first != "help", !commands.contains(first) else { return nil }
        let name = Console.escaped(first, limit: 60)
        let guess = nearest(first, in: commands).map { " (did you mean '\($0)'?)" } ?? ""
        return "unknown command '\(name)'\(guess); commands: \(commands.joined(separator: ", "))"
    }

    /// The command within a third of its length in edits (at least 2), or
    /// one the word starts, or that starts with the word; nil when none is near.
    static func nearest(_ word: String, in commands: [String]) -> String? {
        let w = Array(word.lowercased())
        guard !w.isEmpty, w.count <= 64 else { return nil }
        if let prefixed = commands.first(where: { $0.hasPrefix(String(w)) || String(w).hasPrefix($0) }), w.count >= 2 { return prefixed }
        let scored = commands.map { ($0, distance(w, Array($0))) }.min { $0.1 < $1.1 }
        guard let (best, d) = scored, d <= max(2, best.count / 3) else { return nil }
        return best
    }

    /// Optimal string alignment distance: a swapped pair of neighbours
    /// (comapre) counts as one edit, as in most typos.
    static func distance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var d = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { d[i][0] = i }
        for j in 0...b.count { d[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1) }
            }
        }
        return d[a.count][b.count]
    }
}
