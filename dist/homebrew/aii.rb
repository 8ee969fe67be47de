# Homebrew formula for aii on Apple silicon: the release's macOS tarball,
# which holds its own Java runtime. dist/homebrew/formula.sh fills in the
# version and the tarball's checksum for a release.
class Aii < Formula
  desc "Ask a local language model from the command line, commands run on approval"
  homepage "https://aii.dev"
  url "https://github.com/aii-dev/aii/releases/download/v@VERSION@/aii-@VERSION@-macos-arm64.tar.gz"
  version "@VERSION@"
  sha256 "@SHA256@"
  license "Apache-2.0"

  depends_on arch: :arm64
  depends_on :macos

  def install
    # The launcher finds the runtime beside itself, through the symbolic link.
    libexec.install Dir["*"]
    bin.install_symlink libexec/"bin/aii"
    man1.install_symlink libexec/"share/man/man1/aii.1"
    bash_completion.install_symlink libexec/"share/bash-completion/completions/aii"
    zsh_completion.install_symlink libexec/"share/zsh/site-functions/_aii"
  end

  def post_install
    # The startup caches, checked or made for this machine and this place.
    system bin/"aii", "--post-install"
  end

  test do
    assert_equal "aii #{version}\n", shell_output("#{bin}/aii --version")
    assert_equal "allow (rule: ls)\n", shell_output("#{bin}/aii --check ls -la")
  end
end
