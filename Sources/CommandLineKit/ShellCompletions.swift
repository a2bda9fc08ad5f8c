/// A shell whose completion script a program writes.
public enum Shell: String, CaseIterable, Sendable {
    case bash, zsh, fish
}

/// Completion scripts for bash, zsh and fish, written from the same tables as `--help`: the
/// subcommands, each one's options (their values: the choices where the table names them, else
/// files), and its argument (a file).
extension Program {
    public func completionScript(for shell: Shell) -> String {
        let manuals = commands.map { $0.manual(in: self) }
        switch shell {
        case .bash: return bashScript(manuals)
        case .zsh: return zshScript(manuals)
        case .fish: return fishScript(manuals)
        }
    }

    /// The first line of an option's or command's help, for the shells that show one.
    private static func summary(_ help: HelpProse) -> String {
        let flat = help.lines(width: Int.max).map { $0.trimmingLeadingSpaces() }.joined(separator: " ")
        var searchFrom = flat.startIndex
        // The first sentence: up to the first ". " that does not end an abbreviation (e.g., i.e.).
        while let end = flat.range(of: ". ", range: searchFrom..<flat.endIndex) {
            let before = flat[..<end.lowerBound]
            if !before.hasSuffix("e.g") && !before.hasSuffix("i.e") { return String(before) }
            searchFrom = end.upperBound
        }
        return flat.hasSuffix(".") ? String(flat.dropLast()) : flat
    }

    /// The function's name in the shell: `_stepimport`.
    private var functionName: String {
        "_" + name.map { $0.isLetter || $0.isNumber ? $0 : "_" }.map(String.init).joined()
    }

    // MARK: - bash

    private func bashScript(_ manuals: [CommandManual]) -> String {
        let words = (commands.map(\.name) + ["help"] + optionNames).joined(separator: " ")
        var script = """
            # bash completion for \(name), written by `\(name) completions bash` from its option tables.
            \(functionName)() {
                local cur="${COMP_WORDS[COMP_CWORD]}" prev="${COMP_WORDS[COMP_CWORD-1]}" command="" i
                for ((i = 1; i < COMP_CWORD; i++)); do
                    case "${COMP_WORDS[i]}" in
                        \(commands.map(\.name).joined(separator: "|"))|help) command="${COMP_WORDS[i]}"; break ;;
                    esac
                done
                case "$command" in
                    "") COMPREPLY=($(compgen -W "\(words)" -- "$cur")) ;;
                    help) COMPREPLY=($(compgen -W "\(commands.map(\.name).joined(separator: " "))" -- "$cur")) ;;

            """
        for manual in manuals {
            script += "        \(manual.name))\n"
            script += "            case \"$prev\" in\n"
            for option in manual.options where option.valueName != nil {
                let names = option.names.joined(separator: "|")
                if option.choices.isEmpty {
                    script += "                \(names)) compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -f -- \"$cur\")); return ;;\n"
                } else {
                    script += "                \(names)) COMPREPLY=($(compgen -W \"\(option.choices.joined(separator: " "))\" -- \"$cur\")); return ;;\n"
                }
            }
            script += "            esac\n"
            let names = manual.options.flatMap(\.names).joined(separator: " ")
            let argument = manual.arguments.first.map { Self.bashArgument($0.name, choices: manual.argumentChoices) }
                ?? "COMPREPLY=()"
            script += "            if [[ $cur == -* ]]; then COMPREPLY=($(compgen -W \"\(names)\" -- \"$cur\")); "
                + "else \(argument); fi ;;\n"
        }
        script += """
                esac
            }
            complete -F \(functionName) \(name)

            """
        return script
    }

    private static func bashArgument(_ name: String, choices: [String]) -> String {
        choices.isEmpty ? "compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -f -- \"$cur\"))"
            : "COMPREPLY=($(compgen -W \"\(choices.joined(separator: " "))\" -- \"$cur\"))"
    }

    // MARK: - zsh

    private func zshScript(_ manuals: [CommandManual]) -> String {
        func quoted(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'" }
        func bracketed(_ text: String) -> String {
            text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "[", with: "\\[")
                .replacingOccurrences(of: "]", with: "\\]").replacingOccurrences(of: ":", with: "\\:")
        }
        var script = """
            #compdef \(name)
            # zsh completion for \(name), written by `\(name) completions zsh` from its option tables.
            \(functionName)() {
                local -a commands
                commands=(

            """
        for manual in manuals {
            script += "        \(quoted(manual.name + ":" + Self.summary(manual.abstract).replacingOccurrences(of: ":", with: "\\:")))\n"
        }
        script += """
                )
                if (( CURRENT == 2 )); then
                    _describe -t commands \(quoted(name + " subcommand")) commands
                    compadd -- help \(optionNames.joined(separator: " "))
                    return
                fi
                local command=${words[2]}
                shift words
                (( CURRENT-- ))
                case $command in
                    help) _describe -t commands \(quoted(name + " subcommand")) commands ;;

            """
        for manual in manuals {
            var specs: [String] = []
            for option in manual.options {
                let help = "[" + bracketed(Self.summary(option.help)) + "]"
                let exclusive = option.names.count > 1 ? "(" + option.names.joined(separator: " ") + ")" : ""
                let star = option.repeatable ? "*" : ""
                let value: String
                if let valueName = option.valueName {
                    let action = option.choices.isEmpty ? "_files" : "(" + option.choices.joined(separator: " ") + ")"
                    value = ":" + bracketed(valueName) + ":" + action
                } else {
                    value = ""
                }
                for optionName in option.names {
                    let form = option.valueName != nil && optionName.hasPrefix("--") ? optionName + "=" : optionName
                    specs.append(quoted(star + (option.repeatable ? "" : exclusive) + form + help + value))
                }
            }
            for argument in manual.arguments {
                let action = manual.argumentChoices.isEmpty ? "_files" : "(" + manual.argumentChoices.joined(separator: " ") + ")"
                specs.append(quoted(":" + bracketed(argument.name) + ":" + action))
            }
            script += "        \(manual.name)) _arguments -s \\\n"
            script += specs.map { "            \($0)" }.joined(separator: " \\\n") + " ;;\n"
        }
        script += """
                esac
            }
            \(functionName) "$@"

            """
        return script
    }

    // MARK: - fish

    private func fishScript(_ manuals: [CommandManual]) -> String {
        func quoted(_ text: String) -> String {
            "'" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'") + "'"
        }
        var lines = [
            "# fish completion for \(name), written by `\(name) completions fish` from its option tables.",
            "complete -c \(name) -f",
        ]
        let noCommand = "not __fish_seen_subcommand_from \(commands.map(\.name).joined(separator: " ")) help"
        for manual in manuals {
            lines.append("complete -c \(name) -n \(quoted(noCommand)) -a \(manual.name) -d \(quoted(Self.summary(manual.abstract)))")
        }
        lines.append("complete -c \(name) -n \(quoted(noCommand)) -a help -d 'Show the help of a subcommand'")
        for option in options {
            lines.append("complete -c \(name) -n \(quoted(noCommand)) \(Self.fishNames(option.names)) -d \(quoted(Self.summary(option.help)))")
        }
        lines.append("complete -c \(name) -n '__fish_seen_subcommand_from help' -a \(quoted(commands.map(\.name).joined(separator: " ")))")
        for manual in manuals {
            let condition = quoted("__fish_seen_subcommand_from \(manual.name)")
            for option in manual.options {
                var line = "complete -c \(name) -n \(condition) \(Self.fishNames(option.names))"
                if option.valueName != nil {
                    line += option.choices.isEmpty ? " -r -F" : " -x -a \(quoted(option.choices.joined(separator: " ")))"
                }
                lines.append(line + " -d \(quoted(Self.summary(option.help)))")
            }
            if !manual.arguments.isEmpty {
                lines.append("complete -c \(name) -n \(condition) "
                    + (manual.argumentChoices.isEmpty ? "-F" : "-a \(quoted(manual.argumentChoices.joined(separator: " ")))"))
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `-s q -l quiet`.
    private static func fishNames(_ names: [String]) -> String {
        names.map { $0.hasPrefix("--") ? "-l " + $0.dropFirst(2) : "-s " + $0.dropFirst(1) }.joined(separator: " ")
    }
}
