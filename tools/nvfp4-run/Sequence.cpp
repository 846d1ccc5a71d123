//===- Sequence.cpp - The kernels of one host function, in order ----------===//

#include "nvfp4-run/Sequence.h"

#include <algorithm>
#include <set>

using namespace nvfp4;
using namespace nvfp4::run;
namespace seq_key = manifest::seq_key;

namespace {

/// Reads the members of one JSON object, the first problem kept as a
/// one-line error naming `where`.
class Fields {
public:
  Fields(const json::Json &object, std::string where, std::string &error)
      : object(object), where(std::move(where)), error(error) {}

  const json::Json *get(const char *key) {
    if (!error.empty())
      return nullptr;
    auto it = object.find(key);
    if (it == object.end()) {
      fail(std::string("missing key \"") + key + "\"");
      return nullptr;
    }
    return &*it;
  }
  std::optional<int64_t> integer(const char *key, int64_t min) {
    const json::Json *value = get(key);
    if (!value)
      return std::nullopt;
    if (!value->is_number_integer() || value->get<int64_t>() < min) {
      fail(std::string("\"") + key + "\" must be an integer >= " +
           std::to_string(min) + ", got " + json::shown(*value));
      return std::nullopt;
    }
    return value->get<int64_t>();
  }
  std::optional<std::string> string(const char *key) {
    const json::Json *value = get(key);
    if (!value)
      return std::nullopt;
    if (!value->is_string()) {
      fail(std::string("\"") + key + "\" must be a string, got " +
           json::describe(*value));
      return std::nullopt;
    }
    return value->get<std::string>();
  }
  const json::Json *array(const char *key) {
    const json::Json *value = get(key);
    if (value && !value->is_array()) {
      fail(std::string("\"") + key + "\" must be an array, got " +
           json::describe(*value));
      return nullptr;
    }
    return value;
  }
  /// An optional boolean flag; false when absent.
  bool flag(const char *key) {
    auto it = object.find(key);
    if (it == object.end() || !error.empty())
      return false;
    if (!it->is_boolean()) {
      fail(std::string("\"") + key + "\" must be a boolean, got " +
           json::describe(*it));
      return false;
    }
    return it->get<bool>();
  }
  void fail(const std::string &message) {
    if (error.empty())
      error = where.empty() ? message : where + ": " + message;
  }

private:
  const json::Json &object;
  std::string where;
  std::string &error;
};

std::string expectObject(const json::Json &value, const std::string &what) {
  return value.is_object()
             ? ""
             : what + " must be an object, got " + json::describe(value);
}

/// Checks that `arg`, bound to `param` of the launch, is what the param
/// needs. Returns a one-line error or "".
std::string checkArg(const Sequence &sequence, const Manifest &manifest,
                     Param param, const SequenceArg &arg) {
  std::string what = std::string("param \"") + name(param) + "\"";
  if (manifest::isTensorMap(param))
    return arg.tensorMap ? ""
                         : what + " is a tensor map: it takes \"" +
                               seq_key::TensorMap + "\": true";
  if (arg.tensorMap || arg.arg < 0)
    return what + " takes a function argument";
  if (param == Param::Alpha)
    return arg.scalar ? ""
                      : what + " is a scalar: it takes \"" + seq_key::Scalar +
                            "\": true";
  if (arg.scalar)
    return what + " is a buffer, not a scalar";
  auto it = sequence.buffers.find(arg.arg);
  if (it == sequence.buffers.end())
    return what + ": argument " + std::to_string(arg.arg) +
           " is not among the buffers";
  int64_t want = paramBytes(manifest, param);
  if (it->second != want)
    return what + ": argument " + std::to_string(arg.arg) + " has " +
           std::to_string(it->second) + " bytes, the kernel expects " +
           std::to_string(want);
  return "";
}

bool parseBuffers(const json::Json &list, Sequence &sequence,
                  std::string &error) {
  for (size_t i = 0; i < list.size(); ++i) {
    std::string where =
        std::string(seq_key::Buffers) + "[" + std::to_string(i) + "]";
    if (error = expectObject(list[i], where); !error.empty())
      return false;
    Fields fields(list[i], where, error);
    std::optional<int64_t> arg = fields.integer(seq_key::Arg, 0);
    std::optional<int64_t> bytes = fields.integer(seq_key::Bytes, 1);
    if (!arg || !bytes)
      return false;
    if (!sequence.buffers.emplace(*arg, *bytes).second) {
      error = where + ": argument " + std::to_string(*arg) + " listed twice";
      return false;
    }
  }
  return true;
}

bool parseLaunch(const json::Json &entry, std::string_view baseDir,
                 const std::string &where, Sequence &sequence,
                 std::string &error) {
  if (error = expectObject(entry, where); !error.empty())
    return false;
  Fields fields(entry, where, error);
  std::optional<std::string> file = fields.string(seq_key::Manifest);
  const json::Json *args = fields.array(seq_key::Args);
  if (!file || !args)
    return false;
  std::optional<Manifest> manifest =
      loadManifest(joinPath(baseDir, *file), error);
  if (!manifest) {
    error = where + ": " + error;
    return false;
  }
  std::string launchName = where + " (" + *file + ")";
  if (args->size() != manifest->params.size()) {
    error = launchName + ": " + std::to_string(args->size()) + " args for " +
            std::to_string(manifest->params.size()) + " kernel params";
    return false;
  }
  SequenceLaunch launch;
  for (size_t j = 0; j < args->size(); ++j) {
    std::string argWhere = launchName + ": args[" + std::to_string(j) + "]";
    if (error = expectObject((*args)[j], argWhere); !error.empty())
      return false;
    Fields argFields((*args)[j], argWhere, error);
    SequenceArg arg;
    arg.tensorMap = argFields.flag(seq_key::TensorMap);
    arg.scalar = argFields.flag(seq_key::Scalar);
    if (!arg.tensorMap) {
      std::optional<int64_t> index = argFields.integer(seq_key::Arg, 0);
      if (!index)
        return false;
      arg.arg = *index;
    }
    if (!error.empty())
      return false;
    if (std::string bad =
            checkArg(sequence, *manifest, manifest->params[j], arg);
        !bad.empty()) {
      error = launchName + ": " + bad;
      return false;
    }
    launch.args.push_back(arg);
  }
  launch.manifest = std::move(*manifest);
  sequence.launches.push_back(std::move(launch));
  return true;
}

} // namespace

int64_t SequenceLaunch::bufferOf(Param param) const {
  for (size_t i = 0; i < args.size(); ++i)
    if (manifest.params[i] == param)
      return args[i].arg;
  return -1;
}

std::optional<Sequence> nvfp4::run::parseSequence(const json::Document &doc,
                                                  std::string_view baseDir,
                                                  std::string &error) {
  error.clear();
  if (error = expectObject(doc.root, "the sequence"); !error.empty())
    return std::nullopt;
  Fields fields(doc.root, "", error);
  std::optional<int64_t> version = fields.integer(seq_key::Version, 0);
  if (version && *version != manifest::kSequenceVersion)
    fields.fail("sequence version " + std::to_string(*version) +
                " is not supported (this nvfp4-run reads version " +
                std::to_string(manifest::kSequenceVersion) + ")");
  std::optional<std::string> function = fields.string(seq_key::Function);
  const json::Json *buffers = fields.array(seq_key::Buffers);
  const json::Json *launches = fields.array(seq_key::Launches);
  if (!error.empty())
    return std::nullopt;
  Sequence sequence;
  sequence.function = *function;
  if (!parseBuffers(*buffers, sequence, error))
    return std::nullopt;
  if (launches->empty()) {
    error = "no launches";
    return std::nullopt;
  }
  for (size_t i = 0; i < launches->size(); ++i)
    if (!parseLaunch((*launches)[i], baseDir,
                     std::string(seq_key::Launches) + "[" + std::to_string(i) +
                         "]",
                     sequence, error))
      return std::nullopt;
  return sequence;
}

std::optional<Sequence> nvfp4::run::loadSequence(const std::string &path,
                                                 std::string &error) {
  std::string text;
  if (!readRegularFile(path, text)) {
    error = path + ": cannot read the sequence file";
    return std::nullopt;
  }
  std::optional<json::Document> doc = json::parse(text, error);
  if (!doc) {
    error = path + ":" + error;
    return std::nullopt;
  }
  std::optional<Sequence> sequence =
      parseSequence(*doc, directoryOf(path), error);
  if (!sequence) {
    error = path + ": " + error;
    return std::nullopt;
  }
  sequence->path = path;
  return sequence;
}

std::map<int64_t, size_t> nvfp4::run::sequenceInputs(const Sequence &sequence) {
  std::map<int64_t, size_t> inputs;
  std::set<int64_t> written;
  for (size_t i = 0; i < sequence.launches.size(); ++i) {
    const SequenceLaunch &launch = sequence.launches[i];
    // A kernel reads its inputs before it writes its outputs.
    for (size_t j = 0; j < launch.args.size(); ++j) {
      Param param = launch.manifest.params[j];
      int64_t arg = launch.args[j].arg;
      if (manifest::isBuffer(param) &&
          !manifest::writes(launch.manifest.kind, param) && !written.count(arg))
        inputs.emplace(arg, i);
    }
    for (size_t j = 0; j < launch.args.size(); ++j)
      if (manifest::writes(launch.manifest.kind, launch.manifest.params[j]))
        written.insert(launch.args[j].arg);
  }
  return inputs;
}

std::string nvfp4::run::rewrittenInput(const Sequence &sequence) {
  std::map<int64_t, size_t> readBy; // argument -> first launch reading it
  for (size_t i = 0; i < sequence.launches.size(); ++i) {
    const SequenceLaunch &launch = sequence.launches[i];
    for (size_t j = 0; j < launch.args.size(); ++j) {
      Param param = launch.manifest.params[j];
      if (!manifest::isBuffer(param))
        continue;
      int64_t arg = launch.args[j].arg;
      auto it = readBy.find(arg);
      if (manifest::writes(launch.manifest.kind, param) && it != readBy.end())
        return describeLaunch(sequence, i) + " writes argument " +
               std::to_string(arg) + ", which " +
               describeLaunch(sequence, it->second) +
               " read: its timed repetitions would read other inputs";
      if (!manifest::writes(launch.manifest.kind, param))
        readBy.emplace(arg, i);
    }
  }
  return "";
}

std::string nvfp4::run::describeLaunch(const Sequence &sequence, size_t index) {
  return "launch " + std::to_string(index + 1) + " (" +
         sequence.launches[index].manifest.path + ")";
}
