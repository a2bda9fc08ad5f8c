import Foundation
import Testing
import TestSupport

/// deploy/kubernetes/job.yaml, the Indexed Job of docs/batch.md: the doc shows the file as it
/// is, and the pod's command line, run as Kubernetes runs it (command + args, the container's
/// env, JOB_COMPLETION_INDEX) with the built binary, is one `stepimport batch` accepts for every
/// index: the binary's own option table judges it, not a copy of it here. scripts/check-manifests
/// validates the file against Kubernetes' schemas.
@Suite struct KubernetesJobTests {
    static let manifestPath = "deploy/kubernetes/job.yaml"
    static var root: URL { TestPaths.packageRoot }

    /// The parts of the Job this test reads, as Kubernetes names them.
    struct Job: Decodable {
        struct Spec: Decodable {
            let completionMode: String
            let completions: Int
            let podFailurePolicy: FailurePolicy
            let template: Template
        }
        struct FailurePolicy: Decodable {
            struct Rule: Decodable {
                struct ExitCodes: Decodable {
                    let containerName: String?
                    let values: [Int32]
                }
                let action: String
                let onExitCodes: ExitCodes?
            }
            let rules: [Rule]
        }
        struct Template: Decodable {
            let spec: PodSpec
        }
        struct PodSpec: Decodable {
            struct SecurityContext: Decodable {
                let runAsNonRoot: Bool?
                let runAsUser: Int?
                let runAsGroup: Int?
                let fsGroup: Int?
            }
            let securityContext: SecurityContext?
            let containers: [Container]
        }
        struct Container: Decodable {
            struct Variable: Decodable {
                let name: String
                let value: String
            }
            struct Mount: Decodable {
                let name: String
                let mountPath: String
            }
            let name: String
            let image: String
            let command: [String]
            let args: [String]
            let env: [Variable]
            let volumeMounts: [Mount]
        }
        let kind: String
        let spec: Spec
    }

    /// The manifest read by a YAML parser of its own (PyYAML), not by string matching here.
    static func job() throws -> Job {
        let result = try CommandRunner.run("python3 \"$SCRIPTS/lib/yaml_to_json.py\" '\(root.appendingPathComponent(manifestPath).path)'")
        try #require(result.status == 0, "reading \(manifestPath) with PyYAML (Debian: python3-yaml): \(result.stderr)")
        return try JSONDecoder().decode(Job.self, from: result.stdout)
    }

    static func container(_ job: Job) throws -> Job.Container {
        try #require(job.spec.template.spec.containers.count == 1, "one container")
        return job.spec.template.spec.containers[0]
    }

    /// A word the shell reads back as it is.
    static func quoted(_ word: String) -> String {
        "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// The pod's process for completion index `index`, its volumes folders under `volumes`: the
    /// container's command and args, in the container's env (and nothing of this process's) with
    /// the built `stepimport` first on PATH, as the image's ENTRYPOINT finds it. `extra` is
    /// appended to the shell script's last line.
    static func runPod(_ job: Job, index: Int, volumes: URL, extra: String = "") throws -> CommandRunner.Result {
        let container = try container(job)
        var script = try #require(container.args.last) + extra
        for mount in container.volumeMounts {
            script = script.replacingOccurrences(of: mount.mountPath + "/", with: volumes.appendingPathComponent(mount.name).path + "/")
        }
        let environment = ["PATH=$(dirname \"$STEPIMPORT\"):/usr/bin:/bin", "LC_ALL=C.UTF-8", "JOB_COMPLETION_INDEX=\(index)"]
            + container.env.map { quoted("\($0.name)=\($0.value)") }
        let words = container.command + container.args.dropLast() + [script]
        return try CommandRunner.run("env -i " + environment.joined(separator: " ") + " " + words.map(quoted).joined(separator: " "))
    }

    static func temporaryFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("stepimport-job-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    @Test func docsBatchShowsTheManifestFileByteForByte() throws {
        let file = try String(contentsOf: Self.root.appendingPathComponent(Self.manifestPath), encoding: .utf8)
        let doc = try String(contentsOf: Self.root.appendingPathComponent("docs/batch.md"), encoding: .utf8)
        let marker = "<!-- \(Self.manifestPath) -->\n```yaml\n"
        let start = try #require(doc.range(of: marker), "docs/batch.md has no block marked \(marker)")
        let end = try #require(doc.range(of: "\n```\n", range: start.upperBound..<doc.endIndex))
        let shown = doc[start.upperBound..<end.lowerBound] + "\n"
        #expect(shown == file, "docs/batch.md's block differs from \(Self.manifestPath); paste the file into it")
    }

    /// Every index 0..<completions runs `stepimport batch` with its own shard and gets as far as
    /// the manifest, which is not there (66); one index more is a shard beyond N (64), so the
    /// manifest's N and the Job's completions are the same.
    @Test func everyCompletionIndexRunsABatchCommandLineTheBinaryAccepts() throws {
        let job = try Self.job()
        #expect(job.kind == "Job" && job.spec.completionMode == "Indexed")
        let container = try Self.container(job)
        #expect(container.command.first == "/bin/sh" && container.args.last?.contains("exec stepimport batch ") == true)
        for index in 0...job.spec.completions {
            let volumes = try Self.temporaryFolder()
            defer { try? FileManager.default.removeItem(at: volumes) }
            let result = try Self.runPod(job, index: index, volumes: volumes)
            let shard = "\(index + 1)/\(job.spec.completions)"
            if index < job.spec.completions {
                #expect(result.status == 66, "index \(index): exit \(result.status), not 66 (no manifest): \(result.stderr)")
                #expect(result.stderr.contains("accounts.csv"), "index \(index): \(result.stderr)")
                // The folder --report writes into exists before the batch ends and writes it.
                var isFolder: ObjCBool = false
                #expect(FileManager.default.fileExists(atPath: volumes.appendingPathComponent("data/reports").path, isDirectory: &isFolder)
                        && isFolder.boolValue, "index \(index): no reports folder")
            } else {
                #expect(result.status == 64, "index \(index), shard \(shard): exit \(result.status), not 64: \(result.stderr)")
                #expect(result.stderr.contains("shard"), "index \(index): \(result.stderr)")
            }
        }
    }

    /// The same way of running it refuses what the binary does not accept: the test above can fail.
    @Test(arguments: [" --no-such-option", " --jobs", " --shard 0/8", " --report"])
    func aCommandLineTheBinaryRefusesIsAUsageError(_ extra: String) throws {
        let job = try Self.job()
        let volumes = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: volumes) }
        let result = try Self.runPod(job, index: 0, volumes: volumes, extra: extra)
        #expect(result.status == 64, "with\(extra): exit \(result.status): \(result.stderr)")
    }

    /// The pod runs as the image's user, and its group owns the volumes (fsGroup), so the token
    /// Secret, root's alone otherwise, is readable.
    @Test func thePodRunsAsTheImagesUserWithItsGroupOnTheVolumes() throws {
        let job = try Self.job()
        let dockerfile = try String(contentsOf: Self.root.appendingPathComponent("Dockerfile"), encoding: .utf8)
        let user = try #require(dockerfile.split(separator: "\n").first { $0.hasPrefix("USER ") }, "the Dockerfile names no USER")
        let ids = user.dropFirst("USER ".count).split(separator: ":").map { Int($0) }
        let context = try #require(job.spec.template.spec.securityContext, "no pod securityContext")
        #expect(ids == [context.runAsUser, context.runAsGroup], "the Dockerfile's \(user) against the pod's \(context)")
        #expect(context.fsGroup == context.runAsGroup && context.fsGroup != nil)
        #expect(context.runAsNonRoot == true)
    }

    /// The exit statuses the failure policy names are ones `stepimport help exit-status` documents
    /// (every command's, batch's among them), and its image is this version's.
    @Test func theFailurePolicyNamesDocumentedExitStatusesAndTheImageThisVersion() throws {
        let job = try Self.job()
        let container = try Self.container(job)
        let help = String(decoding: try CommandRunner.run("\"$STEPIMPORT\" help exit-status").stdout, as: UTF8.self)
        let section = try #require(help.range(of: "EXIT STATUS:\n")).upperBound
        let documented = Set(help[section...].split(separator: "\n").prefix { $0.hasPrefix("  ") }
            .compactMap { Int32($0.split(separator: " ").first ?? "") })
        #expect(documented.isSuperset(of: [0, 1, 3, 64, 66]), "read \(documented.sorted()) from help exit-status")
        let policed = job.spec.podFailurePolicy.rules.compactMap(\.onExitCodes)
        #expect(!policed.isEmpty)
        for codes in policed {
            #expect(codes.containerName == nil || codes.containerName == container.name)
            #expect(Set(codes.values).isSubset(of: documented), "\(codes.values) against help exit-status's \(documented.sorted())")
        }
        let version = String(decoding: try CommandRunner.run("\"$STEPIMPORT\" --version | head -1").stdout, as: UTF8.self)
        #expect(container.image.hasSuffix("/stepimport:" + version.dropFirst("stepimport ".count).trimmingCharacters(in: .whitespacesAndNewlines)),
                "image \(container.image), binary \(version)")
    }
}
