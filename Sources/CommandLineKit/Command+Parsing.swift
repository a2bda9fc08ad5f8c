extension Command {
    /// An option as it was given: the name as typed, the option, and its value.
    struct Given {
        let name: String
        let option: Option<Options>
        let value: String?
    }

    /// Reads the arguments after the command's name into `options`.
    ///
    /// Each option is checked as it comes, in order, so the first mistake on the line is the one
    /// reported; then the group gates, the rules, `finish` and the arguments, in that order.
    /// `-h`/`--help` stops reading and asks for the help page.
    public func parse(_ words: [String], into options: Options) throws(UsageError) -> CommandRequest<Options> {
        do {
            return try read(words, into: options)
        } catch {
            throw UsageError(error, command: name)
        }
    }

    private func read(_ words: [String], into start: Options) throws(UsageProblem) -> CommandRequest<Options> {
        var options = start
        var scanner = ArgumentScanner(words, takesArguments: !arguments.isEmpty)
        var given: [Given] = []
        var values: [String] = []

        while let word = scanner.next() {
            switch word {
            case .argument(let text):
                guard !arguments.isEmpty else { throw .unexpectedArgument(text) }
                values.append(text)
            case .option(let name, let inlineValue):
                if let refusal = refusals.first(where: { $0.names.contains(name) }) {
                    throw .refused(option: name, reason: refusal.message(name))
                }
                guard let option = option(named: name) else { throw .unknownOption(name) }
                let value: String?
                switch (option.kind, inlineValue) {
                case (.flag, nil):
                    value = nil
                case (.flag, .some):
                    guard !option.isHelp else { return .help }
                    throw .unexpectedValue(option: name)
                case (.value, _), (.repeatable, _):
                    guard let text = inlineValue ?? scanner.nextValue() else { throw .missingValue(option: name) }
                    value = text
                }
                switch option.role {
                case .help:
                    return .help
                case .sets(let set):
                    do { try set(&options, value) } catch { throw .rejected(error.message) }
                }
                given.append(Given(name: name, option: option, value: value))
            }
        }

        try checkGates(given)
        try checkRules(given)
        do { try finish(&options) } catch { throw .rejected(error.message) }
        try take(values, into: &options)
        return .run(options)
    }

    /// Every member of a gated group needs its gate, unless a `needs` rule speaks for it.
    private func checkGates(_ given: [Given]) throws(UsageProblem) {
        let ruled = Set(rules.flatMap { rule -> [String] in
            if case .needs(_, let options, _, _) = rule { return options }
            return []
        })
        for item in given {
            guard let group = group(of: item.name), let gate = group.gate, !item.option.names.contains(gate),
                  !item.option.names.contains(where: ruled.contains) else { continue }
            let opens = [gate] + group.opensGate
            if !given.contains(where: { given in given.option.names.contains(where: opens.contains) }) {
                throw .withoutGate(option: item.name, gate: gate, reason: nil)
            }
        }
    }

    private func checkRules(_ given: [Given]) throws(UsageProblem) {
        func isGiven(_ name: String) -> Bool { given.contains { $0.option.names.contains(name) } }
        for rule in rules {
            switch rule {
            case .required(let name):
                let last = given.last { $0.option.names.contains(name) }
                if last?.value?.isEmpty ?? true {
                    throw .missingOption(option(named: name).map { requiredText($0) } ?? name)
                }
            case .exclusive(let first, let second, let reason):
                if isGiven(first) && isGiven(second) { throw .exclusive(first, second, reason: reason) }
            case .needs(let gate, let names, let without, let reason):
                guard let item = given.first(where: { item in names.contains { item.option.names.contains($0) } }) else { continue }
                if !isGiven(gate) || without.contains(where: isGiven) {
                    throw .withoutGate(option: item.name, gate: gate, reason: reason)
                }
            }
        }
    }

    /// `--out PATH`: a required option as its error names it.
    private func requiredText(_ option: Option<Options>) -> String {
        option.longName + (option.kind.valueName.map { " \($0)" } ?? "")
    }

    private func take(_ values: [String], into options: inout Options) throws(UsageProblem) {
        if values.count < arguments.count {
            let argument = arguments[values.count]
            throw .missingArgument(name: argument.name, message: argument.missing)
        }
        if values.count > arguments.count, let last = arguments.last {
            throw .surplusArguments(message: last.surplus, given: values)
        }
        for (argument, value) in zip(arguments, values) {
            do { try argument.set(&options, value) } catch { throw .rejected(error.message) }
        }
    }
}
